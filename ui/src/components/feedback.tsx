/** An action's outcome: errors are announced (role=alert), messages politely (role=status). */
export function Feedback({ message, error }: { message?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {error !== undefined && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {message !== undefined && (
        <p class="ok" role="status">
          {message}
        </p>
      )}
    </>
  );
}
