(* bin/tessel_fmt.ml -- `tessel fmt` entry point *)

open Cmdliner

let render_diag ppf (d : Tessel.Diagnostics.t) =
  Fmt.pf ppf "@[<v>%a: %a [%s]@,%s@]" Tessel.Span.pp d.span
    Fmt.(styled `Red string) "error" d.code.code d.message

let format_file ~width ~check path =
  match Tessel.Parse.file path with
  | Error diags ->
      List.iter (Fmt.epr "%a@." render_diag) diags;
      false
  | Ok ast ->
      let out = Tessel.Printer.to_string ~width ast in
      if check then String.equal out (In_channel.with_open_bin path In_channel.input_all)
      else (
        Out_channel.with_open_bin path (fun oc -> output_string oc out);
        true)

let run width check jobs paths =
  (* one domain per chunk of files; printing is pure so this is safe *)
  let chunks = Tessel.Chunk.split ~n:jobs paths in
  let workers =
    List.map (fun chunk -> Domain.spawn (fun () -> List.for_all (format_file ~width ~check) chunk)) chunks
  in
  if List.for_all Domain.join workers then 0 else 1

let width =
  let doc = "Maximum line width for formatted output." in
  Arg.(value & opt int 100 & info [ "w"; "width" ] ~docv:"COLS" ~doc)

let check =
  Arg.(value & flag & info [ "check" ] ~doc:"Exit non-zero if files are not formatted.")

let jobs =
  let default = Domain.recommended_domain_count () in
  Arg.(value & opt int default & info [ "j"; "jobs" ] ~doc:"Parallel workers.")

let paths = Arg.(non_empty & pos_all file [] & info [] ~docv:"FILE")

let cmd =
  let info = Cmd.info "fmt" ~doc:"Format Tern files" in
  Cmd.v info Term.(const run $ width $ check $ jobs $ paths)

let () = exit (Cmd.eval' cmd)
