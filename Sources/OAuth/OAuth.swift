// Module OAuth: filled in by its issue (see README.md, Architecture).
