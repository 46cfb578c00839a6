import { Alert, Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';

/**
 * A secret the server answers once (a token, a key, recovery codes). Nothing else keeps it:
 * when the person closes this, the caller drops it and it is gone from the page.
 */
export function ShownOnceModal({ title, what, secrets, onClose }: { title: string; what: string; secrets: string[] | null; onClose: () => void }) {
  const text = secrets?.join('\n') ?? '';
  return (
    <Modal opened={secrets !== null} onClose={onClose} title={title} centered closeOnClickOutside={false} size="lg">
      {secrets && (
        <Stack>
          <Alert color="yellow" title="Copy it now">
            The {what} will not be shown again. Keep {secrets.length > 1 ? 'them' : 'it'} somewhere safe, such as a password manager.
          </Alert>
          <Code block aria-label={`The ${what}`} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {text}
          </Code>
          <Group justify="flex-end" wrap="wrap">
            <CopyButton value={text}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? 'Copied' : `Copy the ${what}`}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
