"""The log audit (issue 37): which crawlers visited a site, and did they obey its robots.txt.

Private for now. ``_formats`` reads one access-log line of each format the audit knows
(sans-I/O: text in, a record or a counted problem out); ``_logs`` streams the lines of
files, directories and standard input (plain, gzip, bzip2, zstd) through them, bounded
in line length and memory. The audit job, its report and its command come later.
"""
