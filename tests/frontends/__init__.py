"""Tests of frontends."""
