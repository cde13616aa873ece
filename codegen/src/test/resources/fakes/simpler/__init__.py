"""Fake simpler package."""
