"""The log audit (issue 37): which crawlers visited a site, and did they obey its robots.txt.

``_formats`` reads one access-log line of each format the audit knows (sans-I/O: text in, a
record or a counted problem out); ``_logs`` streams the lines of files, directories and
standard input (plain, gzip, bzip2, zstd), bounded in line length and memory; ``_inforce``
is the robots.txt in force at each request; ``_job`` is the job
(:func:`robotsrules.audit_logs`: the request table), ``_summary`` its summary, aggregated
by DuckDB or Spark.
"""

from ._job import LogAudit, audit_logs

__all__ = ["LogAudit", "audit_logs"]
