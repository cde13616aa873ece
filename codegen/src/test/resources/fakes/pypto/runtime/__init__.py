"""Fake pypto.runtime package (the real one imports heavy modules)."""
