// Says each change of a watched domain's status, whatever screen is open: a
// short message that goes away, in a polite live region always in the page
// (the app renders this once, beside every screen).

import { Toast } from '../../components/toast.tsx';
import { useAppStore } from '../../store-context.tsx';

export function DomainAnnouncer() {
  const announcement = useAppStore((state) => state.domainAnnouncement);
  const clear = useAppStore((state) => state.clearDomainAnnouncement);
  return (
    <div className="toasts domain-toasts">
      <Toast label="Domain checks" messageKey={announcement?.seq} onDone={clear}>
        {announcement && <p>{announcement.text}</p>}
      </Toast>
    </div>
  );
}
