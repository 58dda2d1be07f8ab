defmodule Parley.Chat do
  @moduledoc "Conversations, memberships and messages."

  import Ecto.Query

  require Logger

  alias Parley.Repo
  alias Parley.Chat.{Membership, Message}

  @send_window_ms 60_000
  @send_limit 30

  def list_recent_messages(conversation_id, opts \\ []) do
    limit = Keyword.get(opts, :limit, 50)

    Message
    |> where([m], m.conversation_id == ^conversation_id and is_nil(m.deleted_at))
    |> order_by([m], desc: m.inserted_at)
    |> limit(^limit)
    |> Repo.all()
    |> Enum.reverse()
  end

  def send_message(%{id: user_id}, conversation_id, attrs) do
    with :ok <- check_member(user_id, conversation_id),
         :ok <- check_rate(user_id, conversation_id),
         {:ok, message} <- insert_message(user_id, conversation_id, attrs) do
      Phoenix.PubSub.broadcast(Parley.PubSub, "conversation:#{conversation_id}", {:message_created, message})
      Logger.info("message created", message_id: message.id, user_id: user_id)
      {:ok, message}
    end
  end

  def unread_count(user_id, conversation_id) do
    from(m in Message,
      join: mb in Membership,
      on: mb.conversation_id == m.conversation_id and mb.user_id == ^user_id,
      where: m.conversation_id == ^conversation_id,
      where: m.id > coalesce(mb.last_read_message_id, 0),
      where: is_nil(m.deleted_at) and m.user_id != ^user_id,
      select: count(m.id)
    )
    |> Repo.one()
  end

  defp check_member(user_id, conversation_id) do
    query = from mb in Membership, where: mb.user_id == ^user_id and mb.conversation_id == ^conversation_id
    if Repo.exists?(query), do: :ok, else: {:error, :forbidden}
  end

  defp check_rate(user_id, conversation_id) do
    case Hammer.check_rate("send:#{user_id}:#{conversation_id}", @send_window_ms, @send_limit) do
      {:allow, _count} -> :ok
      {:deny, _limit} -> {:error, :rate_limited}
    end
  end

  defp insert_message(user_id, conversation_id, attrs) do
    %Message{user_id: user_id, conversation_id: conversation_id}
    |> Message.changeset(attrs)
    |> Repo.insert()
  end
end
