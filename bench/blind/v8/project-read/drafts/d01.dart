import 'dart:async';
import 'dart:convert';

import 'package:flutter/material.dart';
import 'package:flutter_riverpod/flutter_riverpod.dart';
import 'package:http/http.dart' as http;

import '../data/session_provider.dart';
import '../widgets/courier_avatar.dart';

/// Live tracking for a single order. Pushed from the order list.
class OrderTrackingScreen extends ConsumerStatefulWidget {
  const OrderTrackingScreen({super.key, required this.orderId});

  final String orderId;

  @override
  ConsumerState<OrderTrackingScreen> createState() => _OrderTrackingScreenState();
}

class _OrderTrackingScreenState extends ConsumerState<OrderTrackingScreen> {
  StreamSubscription<void>? _ticker;
  String _status = 'received';
  String? _courierName;

  @override
  void initState() {
    super.initState();
    // refresh every few seconds so the courier dot feels "live"
    _ticker = Stream.periodic(const Duration(seconds: 5)).listen((_) => _refresh());
    _refresh();
  }

  Future<void> _refresh() async {
    final token = ref.read(sessionProvider).token;
    final res = await http.get(
      Uri.parse('https://api.larder.coop/api/v1/orders/${widget.orderId}/status'),
      headers: {'Authorization': 'Bearer $token'},
    );
    if (!mounted || res.statusCode != 200) return;
    final body = jsonDecode(res.body) as Map<String, dynamic>;
    setState(() {
      _status = body['status'] as String;
      _courierName = body['courier_first_name'] as String?;
    });
  }

  @override
  void dispose() {
    _ticker?.cancel();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    final theme = Theme.of(context);
    return Scaffold(
      appBar: AppBar(title: const Text('Your order')),
      body: Padding(
        padding: const EdgeInsets.all(24),
        child: Column(
          crossAxisAlignment: CrossAxisAlignment.start,
          children: [
            Text(
              _status == 'delivered' ? 'Delivered' : _status == 'on_the_way' ? 'On the way' : _status == 'packing' ? 'Being packed' : 'Received',
              style: theme.textTheme.headlineSmall,
            ),
            const SizedBox(height: 16),
            if (_courierName != null) CourierAvatar(name: _courierName!),
          ],
        ),
      ),
    );
  }
}
