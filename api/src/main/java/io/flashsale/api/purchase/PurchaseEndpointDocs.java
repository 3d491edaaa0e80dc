package io.flashsale.api.purchase;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.IdempotencyKeys;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.PathParameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * {@link PurchaseEndpoint} in the OpenAPI description: springdoc describes MVC's handlers only, and
 * the purchase is a filter's, so its operation is added here, from the endpoint's own route.
 */
@Component
class PurchaseEndpointDocs implements OpenApiCustomizer {

    @Override
    public void customise(io.swagger.v3.oas.models.OpenAPI openApi) {
        Map<String, Schema> schemas = ModelConverters.getInstance().read(PurchaseResponse.class);
        schemas.forEach(openApi.getComponents()::addSchemas);
        Schema<?> purchase = new Schema<>().$ref("#/components/schemas/PurchaseResponse");
        Operation operation = new Operation()
                .operationId("purchase")
                .addTagsItem("purchase-controller")
                .summary("Buy one unit of a sale: one per user per sale, idempotent by Idempotency-Key")
                .addParametersItem(new PathParameter().name("saleId").schema(new StringSchema()))
                .addParametersItem(new HeaderParameter()
                        .name(PurchaseEndpoint.IDEMPOTENCY_KEY)
                        .required(true)
                        .schema(new StringSchema().pattern(IdempotencyKeys.PATTERN)))
                .responses(new ApiResponses()
                        .addApiResponse("202", json("admitted; Location names the purchase", purchase))
                        .addApiResponse("200", json("a repeat of the same key: the same purchase", purchase))
                        .addApiResponse("400", problem(ApiProblem.INVALID_IDEMPOTENCY_KEY))
                        .addApiResponse("401", problem(ApiProblem.UNAUTHORIZED))
                        .addApiResponse("404", problem(ApiProblem.SALE_NOT_FOUND))
                        .addApiResponse(
                                "409",
                                problem(ApiProblem.SOLD_OUT, ApiProblem.ALREADY_PURCHASED, ApiProblem.SALE_NOT_OPEN))
                        .addApiResponse("429", problem(ApiProblem.RATE_LIMITED))
                        .addApiResponse("503", problem(ApiProblem.UNAVAILABLE)));
        openApi.path(PurchaseEndpoint.ROUTE, new PathItem().post(operation));
    }

    private static ApiResponse json(String description, Schema<?> schema) {
        return new ApiResponse()
                .description(description)
                .content(new Content()
                        .addMediaType(
                                org.springframework.http.MediaType.APPLICATION_JSON_VALUE,
                                new MediaType().schema(schema)));
    }

    private static ApiResponse problem(ApiProblem... problems) {
        StringBuilder types = new StringBuilder();
        for (ApiProblem problem : problems) {
            types.append(types.isEmpty() ? "" : ", ").append(problem.slug());
        }
        return new ApiResponse()
                .description(types.toString())
                .content(new Content()
                        .addMediaType(
                                org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE,
                                new MediaType().schema(new Schema<>().type("object"))));
    }
}
