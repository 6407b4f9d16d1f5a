"""Rule functions of Iron Cross (2015), one per rule, each citing the page it implements."""
