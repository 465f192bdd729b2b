// Filled in by the time-zone issue: reads windowsZones.xml, writes the Swift table.
