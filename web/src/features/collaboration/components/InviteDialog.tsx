import { useState, type FormEvent } from 'react';
import { Button, CopyButton, Divider, Group, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { DEFAULT_INVITE_ROLE, INVITE_ROLES, INVITE_TTL_DAYS, type InviteRole, ROLE_DESCRIPTIONS, ROLE_LABELS, inviteBodySchema } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { FormActions } from '@/components/FormActions';
import { MEMBER_TOASTS } from '@/lib/copy/collaboration';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';
import { collaborationApi } from '../api';

interface Props {
  seriesId: string;
  seriesName: string;
  opened: boolean;
  onClose: () => void;
  onInvited: () => void;
}

export const ROLE_OPTIONS = INVITE_ROLES.map((role) => ({ value: role, label: `${ROLE_LABELS[role]} — ${ROLE_DESCRIPTIONS[role].toLowerCase()}` }));

/** The invite link an invitee opens: the Collaboration page with the token, which joins them once. */
export function inviteLinkUrl(token: string): string {
  return `${window.location.origin}/collaboration?invite=${encodeURIComponent(token)}`;
}

/**
 * Invite by e-mail (001 §5: a valid e-mail, a role — viewer by default —, an optional message), or a
 * single-use link for an author whose account e-mail differs. No e-mail is sent: the invite shows in
 * the invitee's app.
 */
export function InviteDialog({ seriesId, seriesName, opened, onClose, onInvited }: Props) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InviteRole>(DEFAULT_INVITE_ROLE);
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<{ inviteeEmail?: string; role?: string }>({});
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<string | null>(null);

  const close = () => {
    setEmail('');
    setRole(DEFAULT_INVITE_ROLE);
    setMessage('');
    setErrors({});
    setLink(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = inviteBodySchema.safeParse({ inviteeEmail: email, role, ...(message.trim() ? { message } : {}) });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'inviteeEmail' || field === 'role') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setBusy(true);
    try {
      await collaborationApi.invite(seriesId, parsed.data);
      toast.show(TOASTS.invitationSent);
      onInvited();
      close();
    } catch (error) {
      toast.show(withError(TOASTS.invitationSendFailed, error));
    } finally {
      setBusy(false);
    }
  };

  const makeLink = async () => {
    setBusy(true);
    try {
      const made = await collaborationApi.inviteLink(seriesId, role);
      setLink(inviteLinkUrl(made.token));
      toast.show(MEMBER_TOASTS.linkCreated);
      onInvited();
    } catch (error) {
      toast.show(withError(TOASTS.invitationSendFailed, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={`Invite to ${seriesName}`} centered radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="E-mail"
            type="email"
            placeholder="co-author@example.com"
            required
            data-autofocus
            value={email}
            error={errors.inviteeEmail}
            description="The invitation appears in the app of the author with this account e-mail."
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              setErrors((x) => ({ ...x, inviteeEmail: undefined }));
            }}
          />
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            value={role}
            allowDeselect={false}
            error={errors.role}
            onChange={(value) => setRole((value as InviteRole | null) ?? DEFAULT_INVITE_ROLE)}
          />
          <Textarea label="Message (optional)" autosize minRows={2} value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
          <FormActions onCancel={close} submitLabel="Send Invitation" busy={busy} />
          <Divider label="or" labelPosition="center" />
          {link ? (
            <Stack gap={6}>
              <Text size="sm">Single-use link ({ROLE_LABELS[role]}, valid for {INVITE_TTL_DAYS} days):</Text>
              <Group gap="xs" wrap="nowrap">
                <TextInput readOnly value={link} aria-label="Invitation link" style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
                <CopyButton value={link}>
                  {({ copied, copy }) => (
                    <Button
                      variant="light"
                      onClick={() => {
                        copy();
                        toast.show(MEMBER_TOASTS.linkCopied);
                      }}
                    >
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
          ) : (
            <Button variant="subtle" leftSection={<IconLink size={16} />} onClick={() => void makeLink()} disabled={busy}>
              Create a single-use invitation link
            </Button>
          )}
        </Stack>
      </form>
    </Modal>
  );
}
