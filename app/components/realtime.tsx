/** Placeholder: opens the Socket.IO connection for logged-in users — owned by the header/realtime work. */
export function RealtimeConnection() {
  return null;
}
