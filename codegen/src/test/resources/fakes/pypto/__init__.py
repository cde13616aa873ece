"""Fake pypto package."""
