"""Owner pages for outbound webhooks, beside /connect-agent."""

from django.urls import URLPattern, URLResolver, path

from webhooks import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("webhooks", views.endpoint_list, name="webhooks"),
    path("webhooks/add", views.add_endpoint, name="webhook_add"),
    path("webhooks/<int:endpoint_id>", views.endpoint_log, name="webhook_log"),
    path("webhooks/<int:endpoint_id>/disable", views.disable_endpoint, name="webhook_disable"),
    path("webhooks/<int:endpoint_id>/enable", views.enable_endpoint, name="webhook_enable"),
    path("webhooks/<int:endpoint_id>/delete", views.delete_endpoint, name="webhook_delete"),
    path("webhooks/<int:endpoint_id>/test", views.send_test_event, name="webhook_test"),
    path("webhooks/<int:endpoint_id>/rotate", views.rotate_secret, name="webhook_rotate"),
    path("webhooks/<int:endpoint_id>/filters", views.set_filters, name="webhook_filters"),
    path("webhooks/<int:endpoint_id>/replay", views.replay_events, name="webhook_replay"),
    path(
        "webhooks/deliveries/<int:delivery_id>/redeliver",
        views.redeliver,
        name="webhook_redeliver",
    ),
]
