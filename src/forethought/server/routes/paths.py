"""The path every subject-scoped route hangs from."""

__all__ = ["SUBJECT"]

# The space is derived from (caller's workspace, the app's subject type, subject id): the client
# names a subject, never a space id.
SUBJECT = "/v1/apps/{app}/subjects/{subject_id}"
