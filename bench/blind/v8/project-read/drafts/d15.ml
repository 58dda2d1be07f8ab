(* lib/typing/env.ml -- lexical scopes for the checker.

   Scopes are plain Hashtbl frames keyed by name. We deliberately do not
   intern or share AST nodes here: the env only maps names to types. *)

type binding = { ty : Types.ty; origin : Span.t }

type t = {
  frames : (string, binding) Hashtbl.t list;
  mutable next_var : int;
  diags : Diagnostics.sink;
}

let empty diags = { frames = [ Hashtbl.create 64 ]; next_var = 0; diags }

let push env = { env with frames = Hashtbl.create 16 :: env.frames }

let bind env name ty origin =
  match env.frames with
  | top :: _ -> Hashtbl.replace top name { ty; origin }
  | [] -> invalid_arg "Env.bind: no frame"

let lookup env name =
  List.find_map
    (fun frame -> Option.map (fun b -> b.ty) (Hashtbl.find_opt frame name))
    env.frames

let fresh_var env =
  let n = env.next_var in
  env.next_var <- n + 1;
  Types.var n

(* Bindings introduced by a pattern; every constructor listed on purpose. *)
let rec bind_pattern env (p : Ast.pattern) ty =
  match p.desc with
  | Ast.P_var name -> bind env name ty p.span
  | Ast.P_wild -> ()
  | Ast.P_lit _ -> ()
  | Ast.P_record fields ->
      List.iter
        (fun (key, sub) -> bind_pattern env sub (Types.field_or_error ty key.Ast.txt))
        fields
  | Ast.P_list items ->
      let elt = Types.list_elt_or_error ty in
      List.iter (fun sub -> bind_pattern env sub elt) items
  | Ast.P_alias (inner, name) ->
      bind_pattern env inner ty;
      bind env name ty p.span
