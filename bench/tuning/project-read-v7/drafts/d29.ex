defmodule ParleyWeb.AttachmentController do
  use ParleyWeb, :controller

  alias Parley.Chat

  @max_bytes 25 * 1024 * 1024
  @bucket Application.compile_env(:parley, [:uploads, :bucket])

  def create(conn, %{"conversation_id" => conversation_id, "file" => %Plug.Upload{} = upload}) do
    user = conn.assigns.current_user
    key = "attachments/#{conversation_id}/#{Ecto.UUID.generate()}/#{upload.filename}"

    with :ok <- Chat.authorize_upload(user, conversation_id),
         :ok <- throttle(user.id),
         {:ok, %File.Stat{size: size}} when size <= @max_bytes <- File.stat(upload.path),
         {:ok, _} <-
           upload.path
           |> ExAws.S3.Upload.stream_file()
           |> ExAws.S3.upload(@bucket, key, content_type: upload.content_type)
           |> ExAws.request(),
         {:ok, attachment} <-
           Chat.create_attachment(user, conversation_id, %{
             key: key,
             filename: upload.filename,
             byte_size: size,
             content_type: upload.content_type
           }) do
      conn
      |> put_status(:created)
      |> json(%{id: attachment.id, key: key})
    else
      {:error, :rate_limited} ->
        conn |> put_status(:too_many_requests) |> json(%{error: "slow_down"})

      {:ok, %File.Stat{}} ->
        conn |> put_status(:request_entity_too_large) |> json(%{error: "file_too_large"})

      {:error, :forbidden} ->
        conn |> put_status(:forbidden) |> json(%{error: "forbidden"})

      {:error, _reason} ->
        conn |> put_status(:bad_gateway) |> json(%{error: "upload_failed"})
    end
  end

  defp throttle(user_id) do
    key = "upload_throttle:#{user_id}"
    {:ok, count} = Redix.command(:redix, ["INCR", key])
    if count == 1, do: Redix.command!(:redix, ["EXPIRE", key, "60"])
    if count > 20, do: {:error, :rate_limited}, else: :ok
  end
end
