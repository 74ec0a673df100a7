import { MessageComposer } from '../../../components/conversation/message-composer';
import { MessageThread } from '../../../components/conversation/message-thread';
import { Spinner } from '../../../components/ui/spinner';
import { ticketAttachmentUrl, useTicketMessages } from '../api/get-ticket-messages';
import { usePostTicketMessage } from '../api/post-ticket-message';

/** The ticket's conversation with staff: the thread, and a message to write (with files). */
export function TicketConversation({ ticketId }: { ticketId: string }) {
  const messages = useTicketMessages(ticketId);
  const post = usePostTicketMessage(ticketId);
  return (
    <section aria-labelledby="conversation-heading" className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="conversation-heading" className="text-xl font-semibold text-slate-900">
        Conversation
      </h2>
      <div className="mt-4">
        {messages.isPending ? (
          <Spinner label="Loading messages..." showLabel />
        ) : messages.isError ? (
          <div role="alert" className="rounded-lg border border-red-700 bg-red-50 px-4 py-3 text-red-800">
            <p>Failed to load the conversation. Please try again.</p>
            <button type="button" onClick={() => void messages.refetch()} className="mt-2 font-semibold underline">
              Try again
            </button>
          </div>
        ) : (
          <MessageThread
            messages={messages.data.messages}
            viewer="customer"
            empty="No messages yet. Write to us below."
            attachmentHref={(_, attachment) => ticketAttachmentUrl(ticketId, attachment.id)}
          />
        )}
      </div>
      <h3 className="mt-6 text-lg font-semibold text-slate-900">Write to us</h3>
      <div className="mt-3">
        <MessageComposer id="ticket-message" label="Write to us" onSend={(input) => post.mutateAsync(input)} />
      </div>
    </section>
  );
}
