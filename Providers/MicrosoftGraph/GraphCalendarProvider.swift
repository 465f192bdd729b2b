// Microsoft Graph provider: filled in by the providers issue.
