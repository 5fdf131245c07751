// The owner's word on the daily backup: when the newest copy was made and how big it is, and a
// warning when none is scheduled, none was made, or the newest is more than two days old (the
// server works this out; docs/backups.md).
import type { BackupStatus } from "../../lib/generated/BackupStatus";
import { formatDateTime } from "../../lib/format";

/** '2.4 MB', '830 KB'. */
export function sizeText(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/** The notice; nothing for staff who are not owners (the server sends none). */
export function BackupNotice({ status }: { status: BackupStatus | null }) {
  if (!status) return null;
  const newest = status.newest;
  const line = newest
    ? `Last backup: ${formatDateTime(newest.writtenAt) || newest.writtenAt}, ${sizeText(newest.bytes)}.`
    : null;
  return (
    <div className={status.warning ? "alert alert--warning backup-notice" : "backup-notice"} role="status">
      {status.warning && <p>{status.warning}</p>}
      {line && <p>{line}</p>}
    </div>
  );
}
