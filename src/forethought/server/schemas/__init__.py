"""The API's request and response models: the wire shapes, kept apart from the domain models so
the API can stay stable while the domain grows (internal ids such as the space id never leave)."""
