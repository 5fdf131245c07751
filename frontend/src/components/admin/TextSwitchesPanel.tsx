// The kinds of text customers get, each with a switch: staff turn one off (the 5:30pm ETA on a day
// the runs are late, say) and on again. Loaded when the block is opened; each change is saved at
// once and the list shows what the server stored, with who changed it last.
import { useState } from "react";
import { adminGet, adminPost } from "../../lib/admin/api";
import { useResource } from "../../lib/admin/useResource";
import { formatDateTime } from "../../lib/format";
import type { MessageKind } from "../../lib/generated/MessageKind";
import type { TextSwitch } from "../../lib/generated/TextSwitch";
import type { TextSwitches } from "../../lib/generated/TextSwitches";
import { AdminAlert } from "./AdminAlert";

const TEXTS_API = "/api/admin/texts";

interface TextSwitchesPanelProps {
  csrf: string;
  onSessionEnded: () => void;
}

/** The block, closed until staff open it. */
export function TextSwitchesPanel({ csrf, onSessionEnded }: TextSwitchesPanelProps) {
  // A switch's failure shows where the list's does.
  const switches = useResource<readonly TextSwitch[] | null>({
    fetch: async (signal) => (await adminGet<TextSwitches>(TEXTS_API, signal)).kinds,
    initial: null,
    onSessionEnded,
  });
  const { data: kinds, failure } = switches;
  const [saving, setSaving] = useState<MessageKind | null>(null);
  const [announcement, setAnnouncement] = useState("");

  /** Loads the list, the spinner instead of the last failure meanwhile. */
  const load = () => {
    switches.clearFailure();
    return switches.load();
  };

  const flip = async (kind: TextSwitch, enabled: boolean) => {
    setSaving(kind.kind);
    switches.clearFailure();
    try {
      const answer = await adminPost<TextSwitches>(TEXTS_API, { kind: kind.kind, enabled }, csrf);
      switches.setData(answer.kinds);
      setAnnouncement(`${kind.label} texts ${enabled ? "on" : "off"}.`);
    } catch (error) {
      switches.fail(error);
    } finally {
      setSaving(null);
    }
  };

  return (
    <details
      className="mail-status text-switches"
      onToggle={(event) => {
        if (event.currentTarget.open && kinds === null) void load();
      }}
    >
      <summary>Texts to customers</summary>
      {failure && <AdminAlert failure={failure} />}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {kinds === null ? (
        !failure && (
          <p role="status">
            <span className="spinner" aria-hidden="true" /> Loading the kinds of text...
          </p>
        )
      ) : (
        <fieldset className="text-switches__list">
          <legend>Send these texts (a kind switched off is not sent, including texts already waiting)</legend>
          {kinds.map((kind) => (
            <label key={kind.kind} className="choice text-switches__kind">
              <input
                type="checkbox"
                checked={kind.enabled}
                disabled={saving !== null}
                onChange={(event) => void flip(kind, event.currentTarget.checked)}
              />
              <span>
                {kind.label}
                {kind.changedBy && kind.changedAt && (
                  <small className="text-switches__who">
                    {" "}
                    {kind.enabled ? "on" : "off"} since {formatDateTime(kind.changedAt)}, by {kind.changedBy}
                  </small>
                )}
              </span>
            </label>
          ))}
        </fieldset>
      )}
    </details>
  );
}
