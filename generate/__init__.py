"""World generators: fresh private worlds from a seed."""
