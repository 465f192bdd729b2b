// Tests for Sandbox: filled in by its issue.
