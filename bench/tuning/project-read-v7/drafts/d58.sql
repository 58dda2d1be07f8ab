-- db/structure.sql, excerpt after 20250812093000_create_gift_cards

CREATE TABLE public.gift_cards (
    id bigint NOT NULL,
    code character varying NOT NULL,
    purchaser_id bigint NOT NULL,
    recipient_name character varying,
    recipient_email character varying,
    balance numeric(8,2) DEFAULT 0.0 NOT NULL,
    initial_value_cents integer NOT NULL,
    mollie_payment_id character varying,
    card_last4 character varying(4),
    expires_on date NOT NULL,
    redeemed_at timestamp(6) without time zone,
    created_at timestamp(6) without time zone NOT NULL,
    updated_at timestamp(6) without time zone NOT NULL
);

CREATE SEQUENCE public.gift_cards_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.gift_cards_id_seq OWNED BY public.gift_cards.id;

ALTER TABLE ONLY public.gift_cards ALTER COLUMN id SET DEFAULT nextval('public.gift_cards_id_seq'::regclass);

ALTER TABLE ONLY public.gift_cards
    ADD CONSTRAINT gift_cards_pkey PRIMARY KEY (id);

CREATE UNIQUE INDEX index_gift_cards_on_code ON public.gift_cards USING btree (code);

CREATE INDEX index_gift_cards_on_purchaser_id ON public.gift_cards USING btree (purchaser_id);

ALTER TABLE ONLY public.gift_cards
    ADD CONSTRAINT fk_rails_5c1ed2ad07 FOREIGN KEY (purchaser_id) REFERENCES public.customers(id);

INSERT INTO "schema_migrations" (version) VALUES
('20250812093000');
