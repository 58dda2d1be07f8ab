"""The `forethought` command line."""
