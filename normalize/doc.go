package normalize
