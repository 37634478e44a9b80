"""Everything that writes for people: terminal tables, files, plots."""
