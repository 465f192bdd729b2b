// Tests for CalendarBridge: filled in by its issue.
