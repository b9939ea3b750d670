// Placeholder until its owner builds it during issue 11; renders nothing.
export function UsersScreen() {
  return null;
}
