import { Text } from '@mantine/core';

/** The terms and privacy notice under each account form (spec 000 §2 Auth page). */
export function TermsNotice() {
  return (
    <Text size="xs" c="dimmed" ta="center" mt="md" data-testid="terms-notice">
      By continuing, you agree to Chronicler&rsquo;s Terms of Service and Privacy Policy. Your manuscripts stay
      yours.
    </Text>
  );
}
