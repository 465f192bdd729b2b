// Tests for Providers: filled in by its issue.
