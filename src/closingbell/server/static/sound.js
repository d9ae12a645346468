// "Your turn" as a sound: two short notes made with WebAudio (no file), off until the player
// turns it on (the toggle's click is also what lets the browser play sound).

const KEY = "closingbell.sound";
let context = null;

/** Whether the player turned the sound on. */
export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

/** Turn the sound on or off (remembered); turning it on plays it once. */
export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) chime();
}

/** Play the "your turn" chime, if the sound is on. */
export function chime() {
  if (!soundOn()) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  try {
    context = context || new Audio();
    const now = context.currentTime;
    for (const [i, freq] of [[0, 660], [1, 880]]) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = now + i * 0.14;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35);
      osc.connect(gain).connect(context.destination);
      osc.start(start);
      osc.stop(start + 0.4);
    }
  } catch {
    // No audio device: the title and the banner still say it is your turn.
  }
}
