"""verl Checkpoint Cookbook: docs about verl's checkpoint engine, checked against verl's source."""

__version__ = "0.1.0"
