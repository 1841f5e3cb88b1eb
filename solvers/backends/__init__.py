"""Backends: the contract every solver keeps (``contract``: solve, count, batches, deadlines),
the catalog that finds, probes and checks them (``registry``, ``probe``), a backend named on the
command line (``spec``), the default choice (``choice``) and the project's own handwritten
searches (``handwritten``). The adapters to libraries live in the top-level ``adapters``
package, one module per library; the catalog imports them only when asked."""
