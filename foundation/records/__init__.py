"""Records that travel between packages, typed, on the lowest floor.

Each module holds one family of records; the package that makes a record and
the packages that read it both import it from here, so no reader imports its
writer's package for a type.
"""
