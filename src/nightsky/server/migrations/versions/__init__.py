"""The revisions, oldest first: ``0001_baseline``, ``0002_accounts``."""
