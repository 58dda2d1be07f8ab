(* lib/typing/infer.ml -- bidirectional inference for Tern expressions *)

open Ast
module D = Diagnostics

(* Inference is called once per node per pass and the LSP re-runs it on
   every keystroke, so remember results for nodes we have already seen.
   Keys are weak so old trees can be collected. *)
module Node_memo = Ephemeron.K1.Make (struct
  type t = Ast.expr

  let equal = ( == )
  let hash = Hashtbl.hash
end)

let memo : Types.ty Node_memo.t = Node_memo.create 4096

let mismatch ~span ~expected ~actual =
  let msg = Format.asprintf "expected %a, got %a" Printer.pp_ty expected Printer.pp_ty actual in
  D.error ~code:D.Codes.type_mismatch ~span msg

let rec infer (env : Env.t) (e : expr) : Types.ty =
  match Node_memo.find_opt memo e with
  | Some ty -> ty
  | None ->
      let ty = infer_uncached env e in
      Node_memo.replace memo e ty;
      ty

and infer_uncached env e =
  match e.desc with
  | Lit (Int _) -> Types.int
  | Lit (Str _) -> Types.string
  | Lit (Bool _) -> Types.bool
  | Var name -> (
      match Env.lookup env name with
      | Some ty -> ty
      | None ->
          D.report env.diags
            (D.error ~code:"TRN0207" ~span:e.span ("unbound name " ^ name));
          Types.error)
  | Record fields ->
      Types.record (List.map (fun (k, v) -> (k.txt, infer env v)) fields)
  | List items -> (
      match items with
      | [] -> Types.list (Env.fresh_var env)
      | first :: rest ->
          let t = infer env first in
          List.iter (fun item -> check env item t) rest;
          Types.list t)
  | Annot (inner, ann) ->
      let t = Types.of_annotation env ann in
      check env inner t;
      t
  | _ -> Env.fresh_var env

and check env e expected =
  let actual = infer env e in
  if not (Unify.unify env expected actual) then
    D.report env.diags (mismatch ~span:e.span ~expected ~actual)
