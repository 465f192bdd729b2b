// Tests for TimeZones: filled in by its issue.
