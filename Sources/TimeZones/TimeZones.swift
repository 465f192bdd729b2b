// Module TimeZones: filled in by its issue (see README.md, Architecture).
