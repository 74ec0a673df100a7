import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { MessageComposer } from '../../../../components/conversation/message-composer';
import { MessageThread } from '../../../../components/conversation/message-thread';
import { Spinner } from '../../../../components/ui/spinner';
import { AdminDialog } from '../../components/admin-dialog';
import { isUnauthorized, serverMessageOr } from '../../lib/errors';
import { ADMIN_TICKET_LIST_KEY } from '../api/get-admin-tickets';
import { adminTicketAttachmentUrl, useAdminTicketMessages } from '../api/get-ticket-messages';
import { usePostStaffMessage } from '../api/post-ticket-message';
import type { TicketActionDialogProps } from './ticket-form-dialog';

/** A ticket's conversation for staff: every message, internal notes marked, and a reply or a note to write. */
export function ConversationDialog({ ticket, onClose, onUnauthorized }: TicketActionDialogProps) {
  const messages = useAdminTicketMessages(ticket.id);
  const post = usePostStaffMessage(ticket.id);
  const queryClient = useQueryClient();
  const unreadBeforeThisRead = messages.data?.unread ?? 0;

  // Reading the thread marked the customer's messages read: the list's badges are out of date.
  useEffect(() => {
    if (unreadBeforeThisRead > 0) void queryClient.invalidateQueries({ queryKey: ADMIN_TICKET_LIST_KEY });
  }, [messages.dataUpdatedAt, unreadBeforeThisRead, queryClient]);

  useEffect(() => {
    if (messages.isError) onUnauthorized(messages.error);
  }, [messages.isError, messages.error, onUnauthorized]);

  return (
    <AdminDialog
      open
      size="lg"
      onOpenChange={(open) => !open && onClose()}
      title={`Conversation on ${ticket.reference}`}
      description={`${ticket.businessName} · ${ticket.contactName}`}
    >
      <h3 className="text-lg font-bold text-slate-900">Messages</h3>
      <div className="mt-2">
        {messages.isPending ? (
          <Spinner label="Loading messages..." showLabel />
        ) : messages.isError ? (
          isUnauthorized(messages.error) ? null : (
            <p role="alert" className="text-red-700">
              {serverMessageOr(messages.error, 'Failed to load the conversation. Please try again.')}
            </p>
          )
        ) : (
          <MessageThread
            messages={messages.data.messages}
            viewer="staff"
            empty="No messages yet."
            attachmentHref={(_, attachment) => adminTicketAttachmentUrl(ticket.id, attachment.id)}
          />
        )}
      </div>
      <h3 className="mt-6 text-lg font-bold text-slate-900">Reply or add a note</h3>
      <div className="mt-2">
        <MessageComposer
          id={`ticket-${ticket.id}-message`}
          label={`Reply or add a note on ${ticket.reference}`}
          withVisibility
          onSend={(input) => post.mutateAsync(input)}
          onHandledError={onUnauthorized}
        />
      </div>
    </AdminDialog>
  );
}
