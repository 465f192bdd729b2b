// Google Calendar provider: filled in by the providers issue.
