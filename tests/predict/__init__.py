"""Tests of predict."""
