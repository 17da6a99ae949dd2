// fontregd
