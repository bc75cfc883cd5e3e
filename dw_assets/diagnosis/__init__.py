"""Diagnosis of incidents: evidence collection over the estate's systems, ranked causes, the path
from cause to readers, and fixes proposed against the owner's repo (`service.diagnose_incident`).

The reasoning lives in the domain core (`dw_assets.core.evidence`, `.diagnosis`, `.cause_rules*`,
`.fixes`); this package only reads the systems and records the result.
"""
