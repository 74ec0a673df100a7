import { ATTACHMENT_MAX_BYTES, MESSAGE_BODY_MAX_LENGTH, messageTexts } from '@ppr/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../lib/api-client';
import { fakeFile } from '../../test/message-fixture';
import { MessageComposer, type ComposerInput, type MessageComposerProps } from './message-composer';

function setup(props: Partial<MessageComposerProps> = {}) {
  const onSend = vi.fn<(input: ComposerInput) => Promise<unknown>>(() => Promise.resolve({}));
  render(<MessageComposer id="compose" label="Write to us" onSend={onSend} {...props} />);
  return { onSend: (props.onSend as typeof onSend | undefined) ?? onSend, user: userEvent.setup({ applyAccept: false }) };
}

const textbox = () => screen.getByRole('textbox', { name: 'Message' });
const fileInput = () => screen.getByLabelText('Attach files');
const send = () => screen.getByRole('button', { name: 'Send' });

function refused(status: number, body: object, retryAfterSeconds?: number): ApiRequestError {
  const { message, errors } = body as { message?: string; errors?: { path: string; message: string }[] };
  return new ApiRequestError(status, JSON.stringify(body), message, { fieldErrors: errors ?? [], retryAfterSeconds });
}

describe('MessageComposer: checks before sending', () => {
  it('refuses an empty or blank message with the contract wording, on the field, and focuses it', async () => {
    const { onSend, user } = setup();
    await user.type(textbox(), '   ');
    await user.click(send());
    expect(onSend).not.toHaveBeenCalled();
    expect(textbox()).toHaveFocus();
    expect(textbox()).toHaveAttribute('aria-invalid', 'true');
    expect(textbox()).toHaveAccessibleDescription(expect.stringContaining(messageTexts.bodyRequired));
    // The error follows the text once shown.
    await user.type(textbox(), 'Hello');
    expect(textbox()).not.toHaveAttribute('aria-invalid');
  });

  it('counts the characters against the limit and refuses a message over it', async () => {
    const { onSend, user } = setup();
    expect(textbox()).toHaveAccessibleDescription('0 / 10,000 characters');
    fireEvent.change(textbox(), { target: { value: 'a'.repeat(MESSAGE_BODY_MAX_LENGTH) } });
    expect(textbox()).toHaveAccessibleDescription('10,000 / 10,000 characters');
    fireEvent.change(textbox(), { target: { value: 'a'.repeat(MESSAGE_BODY_MAX_LENGTH + 3) } });
    expect(textbox()).toHaveAccessibleDescription('10,003 / 10,000 characters (3 over the limit)');
    await user.click(send());
    expect(onSend).not.toHaveBeenCalled();
    expect(textbox()).toHaveAccessibleDescription(expect.stringContaining(messageTexts.bodyTooLong));
  });

  it('checks the chosen files as they are added, lists them, and lets one be removed', async () => {
    const { onSend, user } = setup();
    await user.type(textbox(), 'Screenshots attached');
    await user.upload(
      fileInput(),
      [1, 2, 3].map((n) => fakeFile(`shot-${n}.png`, 'image/png')),
    );
    await user.upload(
      fileInput(),
      [4, 5, 6].map((n) => fakeFile(`shot-${n}.png`, 'image/png')),
    );
    expect(screen.getAllByRole('listitem')).toHaveLength(6);
    expect(fileInput()).toHaveAttribute('aria-invalid', 'true');
    expect(fileInput()).toHaveAccessibleDescription(expect.stringContaining(messageTexts.tooManyAttachments));
    await user.click(send());
    expect(onSend).not.toHaveBeenCalled();
    expect(fileInput()).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Remove shot-6.png' }));
    expect(fileInput()).toHaveFocus();
    expect(fileInput()).not.toHaveAttribute('aria-invalid');
    await user.click(send());
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend.mock.calls[0]![0].files.map((file) => file.name)).toEqual([1, 2, 3, 4, 5].map((n) => `shot-${n}.png`));
  });

  it('refuses a file over 10 MB, files over 25 MB in all, and a type the server refuses', async () => {
    const { user } = setup();
    await user.upload(fileInput(), fakeFile('huge.pdf', 'application/pdf', ATTACHMENT_MAX_BYTES + 1));
    expect(fileInput()).toHaveAccessibleDescription(expect.stringContaining(messageTexts.attachmentTooLarge));
    await user.click(screen.getByRole('button', { name: 'Remove huge.pdf' }));

    await user.upload(
      fileInput(),
      [1, 2, 3].map((n) => fakeFile(`part-${n}.pdf`, 'application/pdf', 9 * 1024 * 1024)),
    );
    expect(fileInput()).toHaveAccessibleDescription(expect.stringContaining(messageTexts.attachmentsTooLarge));
    for (const n of [1, 2, 3]) await user.click(screen.getByRole('button', { name: `Remove part-${n}.pdf` }));

    await user.upload(fileInput(), fakeFile('macro.docm', 'application/vnd.ms-word.document.macroEnabled.12'));
    expect(fileInput()).toHaveAccessibleDescription(expect.stringContaining(messageTexts.attachmentType));
  });

  it('offers only the allowed types in the picker', () => {
    setup();
    expect(fileInput()).toHaveAttribute('accept', expect.stringContaining('application/pdf'));
    expect(fileInput()).toHaveAttribute('multiple');
  });
});

describe('MessageComposer: sending', () => {
  it('sends the trimmed text and the files, reads "Sending..." meanwhile, then empties and refocuses the text box', async () => {
    let finish: () => void = () => undefined;
    const onSend = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { user } = setup({ onSend });
    await user.type(textbox(), '  The screen flickers.{Enter}Since Monday.  ');
    await user.upload(fileInput(), fakeFile('flicker.jpg', 'image/jpeg', 2048));
    await user.click(send());
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(onSend).toHaveBeenCalledWith({
      body: 'The screen flickers.\nSince Monday.',
      files: [expect.any(File)],
      visibility: 'public',
      idempotencyKey: expect.any(String),
    });
    finish();
    await waitFor(() => expect(send()).toBeEnabled());
    expect(textbox()).toHaveValue('');
    expect(textbox()).toHaveFocus();
    expect(screen.queryByRole('list', { name: 'Files to send' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Message sent.');
  });

  it("shows the server's field errors by their fields, and focuses the first", async () => {
    const onSend = vi.fn(() =>
      Promise.reject(
        refused(400, {
          message: 'Validation failed',
          errors: [
            { path: 'attachments', message: messageTexts.attachmentType },
            { path: 'body', message: messageTexts.bodyRequired },
          ],
        }),
      ),
    );
    const { user } = setup({ onSend });
    await user.type(textbox(), 'See the file');
    await user.upload(fileInput(), fakeFile('photo.png', 'image/png'));
    await user.click(send());
    await waitFor(() => expect(textbox()).toHaveFocus());
    expect(textbox()).toHaveAccessibleDescription(expect.stringContaining(messageTexts.bodyRequired));
    expect(fileInput()).toHaveAccessibleDescription(expect.stringContaining(messageTexts.attachmentType));
    expect(fileInput()).toHaveAttribute('aria-invalid', 'true');
    // What was written stays, to be corrected.
    expect(textbox()).toHaveValue('See the file');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says how long to wait after too many messages (429 with Retry-After), in an alert', async () => {
    const onSend = vi.fn(() => Promise.reject(refused(429, { message: 'Too many messages' }, 120)));
    const { user } = setup({ onSend });
    await user.type(textbox(), 'Hello again');
    await user.click(send());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You have sent a lot of messages in a short time. Please wait 2 minutes and try again.',
    );
    expect(textbox()).toHaveValue('Hello again');
  });

  it("shows another refusal's reason, or a general sentence, in an alert", async () => {
    const onSend = vi.fn(() => Promise.reject(refused(404, { message: 'Ticket not found' })));
    const { user } = setup({ onSend });
    await user.type(textbox(), 'Hello');
    await user.click(send());
    expect(await screen.findByRole('alert')).toHaveTextContent('Ticket not found');

    onSend.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    await user.click(send());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Your message could not be sent. Please try again.'));
  });

  it('sends the same Idempotency-Key when the same message is sent again, and a new one for the next message', async () => {
    const onSend = vi.fn<(input: ComposerInput) => Promise<unknown>>(() => Promise.reject(new TypeError('Failed to fetch')));
    const { user } = setup({ onSend });
    await user.type(textbox(), 'Are you there?');
    await user.click(send());
    await screen.findByRole('alert');
    onSend.mockImplementation(() => Promise.resolve({}));
    await user.click(send());
    await screen.findByText('Message sent.');
    await user.type(textbox(), 'Are you there?');
    await user.click(send());
    await waitFor(() => expect(onSend).toHaveBeenCalledTimes(3));
    const [first, retry, next] = onSend.mock.calls.map(([input]) => input.idempotencyKey);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry).toBe(first);
    expect(next).not.toBe(first);
  });

  it('leaves a failure handled elsewhere (an expired session) to its handler', async () => {
    const expired = refused(401, { message: 'Unauthorized' });
    const onHandledError = vi.fn(() => true);
    const { user } = setup({ onSend: () => Promise.reject(expired), onHandledError });
    await user.type(textbox(), 'Hello');
    await user.click(send());
    await waitFor(() => expect(onHandledError).toHaveBeenCalledWith(expired));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('MessageComposer for staff: public reply or internal note', () => {
  it('defaults to a public reply and sends the chosen visibility', async () => {
    const { onSend, user } = setup({ withVisibility: true, label: 'Reply' });
    const group = screen.getByRole('group', { name: 'Message type' });
    expect(group).toBeInTheDocument();
    const publicReply = screen.getByRole('radio', { name: 'Public reply' });
    const internal = screen.getByRole('radio', { name: 'Internal note' });
    expect(publicReply).toBeChecked();
    expect(publicReply).toHaveAccessibleDescription('The customer sees it.');
    expect(internal).toHaveAccessibleDescription('Only staff see it.');

    await user.type(textbox(), 'Check the warranty first');
    await user.click(internal);
    await user.click(screen.getByRole('button', { name: 'Add Internal Note' }));
    expect(onSend).toHaveBeenCalledWith(expect.objectContaining({ body: 'Check the warranty first', files: [], visibility: 'internal' }));
    expect(await screen.findByText('Internal note added.')).toBeInTheDocument();

    await user.click(publicReply);
    await user.type(textbox(), 'We are on it');
    await user.click(screen.getByRole('button', { name: 'Send Reply' }));
    expect(onSend).toHaveBeenLastCalledWith(expect.objectContaining({ body: 'We are on it', files: [], visibility: 'public' }));
    expect(await screen.findByText('Reply sent.')).toBeInTheDocument();
  });
});
