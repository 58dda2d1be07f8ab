(* lib/syntax/parse_driver.ml

   Wraps the Menhir-generated parser with error recovery for the LSP. When the
   incremental parser gives up we try a small fallback so that at least the
   top-level keys of a half-typed file still show up in the outline. *)

module I = Parser.MenhirInterpreter

module Helpers = struct
  let span_of_positions (s, e) = Span.make ~start:s ~stop:e

  let last_token_text lexbuf = Lexing.lexeme lexbuf

  let is_key_token = function Parser.IDENT _ | Parser.STRING _ -> true | _ -> false
end

let fail_diag checkpoint =
  match checkpoint with
  | I.HandlingError env ->
      let pos = I.positions env in
      Diagnostics.error ~code:Diagnostics.Codes.unexpected_token
        ~span:(Helpers.span_of_positions pos) "unexpected token"
  | _ -> assert false

(* Fallback: walk the raw token list and pull out `key = ...` pairs at depth 0.
   Cheap recursive descent over tokens, good enough for the outline view. *)
let rec parse_toplevel_keys depth acc = function
  | [] -> List.rev acc
  | (Parser.LBRACE, _) :: rest -> parse_toplevel_keys (depth + 1) acc rest
  | (Parser.RBRACE, _) :: rest -> parse_toplevel_keys (max 0 (depth - 1)) acc rest
  | (Parser.IDENT name, span) :: (Parser.EQUALS, _) :: rest when depth = 0 ->
      parse_toplevel_keys depth ((name, span) :: acc) rest
  | _ :: rest -> parse_toplevel_keys depth acc rest

let parse ~filename lexbuf =
  let start = Parser.Incremental.file lexbuf.Lexing.lex_curr_p in
  let supplier = I.lexer_lexbuf_to_supplier Lexer.token lexbuf in
  I.loop_handle
    (fun ast -> Ok ast)
    (fun checkpoint ->
      let tokens = Lexer.tokens_of_file filename in
      Error (fail_diag checkpoint, parse_toplevel_keys 0 [] tokens))
    supplier start
