import { Anchor, Text, type TextProps } from '@mantine/core';
import { linkParts } from './sender-details';

/**
 * A sender's text as written: its line breaks kept, http(s) URLs in it clickable (opening in a
 * new tab, no referrer), everything else plain text: React escapes it, so no HTML gets in.
 */
export function LinkedText({ text, ...props }: { text: string } & TextProps) {
  return (
    <Text {...props} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {linkParts(text).map((part, i) =>
        'href' in part ? (
          <Anchor key={i} href={part.href} target="_blank" rel="noopener noreferrer" inherit>
            {part.text}
          </Anchor>
        ) : (
          part.text
        ),
      )}
    </Text>
  );
}
