// src/components/CloseDayButton.tsx
import { Component } from 'solid-js';
import { closeDayNow } from '../ipc/dayclose';

export const CloseDayButton: Component<{ visible: boolean }> = (props) => (
  <button
    class="touch rounded-xl bg-amber-500 px-6 text-2xl font-semibold text-white"
    style={{ display: props.visible ? 'block' : 'none' }}
    onClick={() => closeDayNow()}
  >
    Close day now
  </button>
);
