// Electron's event object for main-process events (docs/api/structures/event.md):
// listeners may call preventDefault, and the emitter reads defaultPrevented.

export interface StandinEvent {
  preventDefault(): void;
  readonly defaultPrevented: boolean;
}

export function electronEvent<T extends object>(extra?: T): StandinEvent & T {
  let prevented = false;
  return Object.assign(
    {
      preventDefault: () => {
        prevented = true;
      },
      get defaultPrevented() {
        return prevented;
      },
    },
    extra,
  );
}
