"""Tests of ir."""
