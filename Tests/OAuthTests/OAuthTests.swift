// Tests for OAuth: filled in by its issue.
