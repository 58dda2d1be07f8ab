"""Readers of what a project already wrote down: rule files, Architecture Decision Records and
commit messages, each turned into `SourceDocument`s (`forethought.domain.documents`) for the
pipeline to file. Readers never write to memory."""
